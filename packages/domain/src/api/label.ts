import * as v from "valibot";
import { dateTime, int64, optionalField, timeInput } from "./primitives.js";

/** Forgejo's `binding:"Required"` on a string: absent or empty is `[Field]: Required`. */
const required = (max: number) => v.pipe(v.string(), v.nonEmpty("Required"), v.maxLength(max));
const text = (max: number) => v.pipe(v.string(), v.maxLength(max));

/** A label of a repository or an organization (Forgejo's `Label`); `color` is six hex digits without `#`. */
export const Label = v.object({
  id: int64(),
  name: v.string(),
  exclusive: v.boolean(),
  is_archived: v.boolean(),
  color: v.string(),
  description: v.string(),
  url: v.string(),
});

/** Body of `POST …/labels`; the color is checked by the service (`bad color code: …`). */
export const CreateLabelOption = v.object({
  name: required(255),
  color: required(32),
  description: optionalField(text(4096)),
  exclusive: optionalField(v.boolean()),
  is_archived: optionalField(v.boolean()),
});

/**
 * Body of `PATCH …/labels/{id}`: only the fields given change (`null` is not given; an absent
 * `is_archived` un-archives, as in Forgejo).
 */
export const EditLabelOption = v.object({
  name: optionalField(text(255)),
  color: optionalField(text(32)),
  description: optionalField(text(4096)),
  exclusive: optionalField(v.boolean()),
  is_archived: optionalField(v.boolean()),
});

/** A milestone (Forgejo's `Milestone`). */
export const Milestone = v.object({
  id: int64(),
  title: v.string(),
  description: v.string(),
  state: v.picklist(["open", "closed"]),
  open_issues: int64(),
  closed_issues: int64(),
  created_at: dateTime(),
  updated_at: v.nullable(dateTime()),
  closed_at: v.nullable(dateTime()),
  due_on: v.nullable(dateTime()),
});

/** Body of `POST …/milestones`: `state: "closed"` creates it closed; any other state is open. */
export const CreateMilestoneOption = v.object({
  title: optionalField(text(255)),
  description: optionalField(text(65536)),
  due_on: optionalField(timeInput()),
  state: optionalField(text(16)),
});

/** Body of `PATCH …/milestones/{id}`: `state: "closed"` closes, any other state reopens. */
export const EditMilestoneOption = v.object({
  title: optionalField(text(255)),
  description: optionalField(text(65536)),
  due_on: optionalField(timeInput()),
  state: optionalField(text(16)),
});
