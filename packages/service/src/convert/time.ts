import type { StopwatchEntry } from "@kiln/domain";
import { type api, formatTime, type Settings } from "@kiln/domain";
import type * as v from "valibot";
import type { AccountSight } from "../access/account-rules.js";
import type { ReactionView } from "../issues/reaction-service.js";
import type { TrackedTimeView } from "../issues/time-service.js";
import { apiUserOrGhost, toApiIssue } from "./issue.js";

/**
 * Forgejo's util.SecToTime: the two largest non-zero units of a duration, e.g. `1 minute 6
 * seconds`, `14 hours 33 minutes`, `2 weeks 4 days` (a month is 365/12 days); empty for zero.
 */
export function secToTime(total: number): string {
  const duration = Math.trunc(total);
  let days = Math.trunc(duration / 86400);
  const years = Math.trunc(days / 365);
  days -= years * 365;
  const months = Math.trunc((days * 12) / 365);
  days -= Math.trunc((months * 365) / 12);
  const weeks = Math.trunc(days / 7);
  days -= weeks * 7;
  const hours = Math.trunc(duration / 3600) % 24;
  const minutes = Math.trunc(duration / 60) % 60;
  const seconds = duration % 60;
  const parts: [number, string][] =
    years > 0
      ? [
          [years, "year"],
          [months, "month"],
        ]
      : months > 0
        ? [
            [months, "month"],
            [weeks, "week"],
          ]
        : weeks > 0
          ? [
              [weeks, "week"],
              [days, "day"],
            ]
          : days > 0
            ? [
                [days, "day"],
                [hours, "hour"],
              ]
            : hours > 0
              ? [
                  [hours, "hour"],
                  [minutes, "minute"],
                ]
              : [
                  [minutes, "minute"],
                  [seconds, "second"],
                ];
  return parts
    .filter(([value]) => value > 0)
    .map(([value, name]) => (value === 1 ? `1 ${name}` : `${value} ${name}s`))
    .join(" ");
}

/** Forgejo's `TrackedTime` (services/convert.ToTrackedTime), with its issue as the viewer sees it. */
export function toApiTrackedTime(
  view: TrackedTimeView,
  sight: AccountSight,
  settings: Settings,
): v.InferOutput<typeof api.TrackedTime> {
  return {
    id: view.entry.id,
    created: formatTime(view.entry.createdAt),
    time: view.entry.time,
    user_id: view.entry.userId ?? 0,
    user_name: view.user?.name ?? "",
    issue_id: view.entry.issueId,
    issue: view.issue ? toApiIssue(view.issue, sight, settings) : null,
  };
}

/** Forgejo's `StopWatch` (services/convert.ToStopWatches): seconds so far at `now`. */
export function toApiStopWatch(entry: StopwatchEntry, now: Date): v.InferOutput<typeof api.StopWatch> {
  const seconds = Math.max(0, Math.floor((now.getTime() - entry.createdAt.getTime()) / 1000));
  return {
    created: formatTime(entry.createdAt),
    seconds,
    duration: secToTime(seconds),
    issue_index: entry.issueIndex,
    issue_title: entry.issueTitle,
    repo_owner_name: entry.repoOwnerName,
    repo_name: entry.repoName,
  };
}

/** Forgejo's `Reaction`: the user as the viewer may see them (the ghost for a deleted one). */
export function toApiReaction(
  view: ReactionView,
  sight: AccountSight,
  settings: Settings,
): v.InferOutput<typeof api.Reaction> {
  return {
    user: apiUserOrGhost(view.user, sight, settings),
    content: view.reaction.type,
    created_at: formatTime(view.reaction.createdAt),
  };
}
