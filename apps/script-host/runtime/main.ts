import "./globals/encoding-first.js";
import { Channel, Command, error, type Msg } from "@kiln/protocol/wire";
import { attachBindings, print } from "./bindings.js";
import { reportUncaught } from "./errors/report.js";
import { installStackTraces } from "./errors/stack.js";
import { installGlobals } from "./globals/install.js";
import { runMain } from "./modules/loader.js";
import { startState } from "./state.js";
import { onChannel, receive, send } from "./transport.js";

/** The main module's specifier: a bare file name given on the command line is relative to cwd. */
function mainSpecifier(script: string): string {
  if (/^([a-z][a-z0-9+.-]*:|\/|\.\.?\/)/i.test(script)) return script;
  return `./${script}`;
}

const then = Promise.prototype.then;
const apply = Reflect.apply;

function onStart(msg: Msg): Promise<void> | undefined {
  if (msg.command !== Command.START) {
    send(Channel.start, error({ error: `ProtocolError: expected START on channel "start"` }));
    return undefined;
  }
  startState.cwd = msg.startCwd;
  startState.argv = [...msg.startArgv];
  startState.debug = msg.startDebugFlag;
  startState.mainMap = msg.startMainMap;
  const script = startState.argv[0];
  if (script === undefined) reportUncaught(new TypeError("START carried no script in start_argv"));
  // With the built-in `then`, taken before any script ran (the script may have replaced it by now).
  return apply(then, runMain(mainSpecifier(script), startState.cwd), [undefined, reportUncaught]);
}

function onOs(msg: Msg): void {
  if (msg.command === Command.ERROR) print(`kiln: the host reported an error: ${msg.error}\n`, 2);
  else
    send(Channel.os, error({ error: `ProtocolError: the runtime does not accept ${Command[msg.command]}` }));
}

// Everything up to here runs when the bundle is evaluated, which may be while the host builds
// its startup snapshot, before any binding exists: nothing above calls the host.
installGlobals();
installStackTraces();
onChannel(Channel.start, onStart);
onChannel(Channel.os, onOs);

/**
 * The boot code's way in: takes the host's bindings (once) and returns the function that receives
 * every batch of messages from the host.
 */
Object.defineProperty(globalThis, "__kiln_attach", {
  configurable: true,
  enumerable: false,
  value(
    send: (bytes: Uint8Array) => void,
    request: (bytes: Uint8Array) => Uint8Array,
    printText: (text: string, stream: number) => void,
    next: () => Promise<unknown>,
  ) {
    delete (globalThis as { __kiln_attach?: unknown }).__kiln_attach;
    attachBindings({ send, request, print: printText });
    // Not while the snapshot is made: V8 adds Error.stackTraceLimit to every new context itself,
    // and finding it already in the snapshot's context is a fatal error.
    Error.stackTraceLimit = 30;
    return (batch?: Uint8Array) => {
      try {
        return receive(batch, reportUncaught, next);
      } catch (thrown) {
        return reportUncaught(thrown);
      }
    };
  },
});
