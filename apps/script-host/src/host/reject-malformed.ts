import {
  Channel,
  Command,
  commandName,
  type Envelope,
  error as errorMsg,
  type Msg,
  validate,
} from "@kiln/protocol/wire";

/** What the runtime may send to the host, by channel (decision 14, docs/decisions.md). */
const accepted: Record<string, readonly Command[]> = {
  [Channel.os]: [Command.CODE_FETCH, Command.CODE_CACHE, Command.EXIT, Command.ERROR],
  [Channel.timers]: [Command.TIMER_START, Command.TIMER_CLEAR, Command.ERROR],
  [Channel.fetch]: [Command.FETCH_REQ, Command.ERROR],
};

/**
 * Checks a decoded message from the runtime before the host acts on it: a known channel, a
 * command the runtime may send on it, and no field the command does not use. Returns the ERROR
 * to answer with, or undefined when the message is fine.
 */
export function rejectMalformed({ channel, msg }: Envelope): Msg | undefined {
  const commands = accepted[channel];
  if (commands === undefined) {
    return errorMsg({ error: `ProtocolError: unknown channel "${channel}"` });
  }
  if (!commands.includes(msg.command)) {
    return errorMsg({
      error: `ProtocolError: ${commandName(msg.command)} is not accepted from the runtime on channel "${channel}"`,
    });
  }
  const problems = validate(msg);
  if (problems.length > 0) {
    return errorMsg({ error: `ProtocolError: ${problems.map((problem) => problem.message).join("; ")}` });
  }
  return undefined;
}
