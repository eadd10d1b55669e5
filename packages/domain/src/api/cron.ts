import * as v from "valibot";
import { dateTime, int64 } from "./primitives.js";

/** A cron task as `GET /admin/cron` shows it (Forgejo's `Cron`); Go's zero time for no next or previous run. */
export const Cron = v.object({
  name: v.string(),
  schedule: v.string(),
  next: dateTime(),
  prev: dateTime(),
  exec_times: int64(),
});
