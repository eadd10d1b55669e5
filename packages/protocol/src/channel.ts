import { Command } from "./gen/main/msg_pb.js";

/** The channel names of decision 14, docs/decisions.md; `BaseMsg.channel` carries one of them. */
export const Channel = {
  start: "start",
  os: "os",
  timers: "timers",
  fetch: "fetch",
} as const;

/** One of the four channel names. */
export type Channel = (typeof Channel)[keyof typeof Channel];

const channelByCommand: Record<Exclude<Command, Command.ERROR>, Channel> = {
  [Command.START]: Channel.start,
  [Command.CODE_FETCH]: Channel.os,
  [Command.CODE_FETCH_RES]: Channel.os,
  [Command.CODE_CACHE]: Channel.os,
  [Command.EXIT]: Channel.os,
  [Command.TIMER_START]: Channel.timers,
  [Command.TIMER_READY]: Channel.timers,
  [Command.TIMER_CLEAR]: Channel.timers,
  [Command.FETCH_REQ]: Channel.fetch,
  [Command.FETCH_RES]: Channel.fetch,
};

/** Whether a string is one of the four channel names. */
export function isChannel(name: string): name is Channel {
  return Object.values(Channel).includes(name as Channel);
}

/**
 * The channel a command travels on. ERROR travels on the channel of the message it answers, so
 * it has none of its own and yields `undefined`, as does a command value outside the enum.
 */
export function channelOf(command: Command): Channel | undefined {
  return command === Command.ERROR ? undefined : channelByCommand[command];
}
