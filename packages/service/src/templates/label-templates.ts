import { NotFoundError } from "@kiln/domain";

/** One label of a label template (Forgejo's structs.LabelTemplate). */
export interface LabelTemplateEntry {
  readonly name: string;
  readonly color: string;
  readonly description: string;
  readonly exclusive: boolean;
}

/**
 * Kiln's label sets, which `/label/templates` lists and `issue_labels` on repository creation
 * applies. They are Kiln's own (no maintained package carries label sets): `Default` holds the
 * familiar unscoped labels, `Advanced` scoped ones where each scope (`Kind/`, `Priority/`, …)
 * is exclusive, so an issue carries one label per scope.
 */
const SETS: Readonly<Record<string, readonly LabelTemplateEntry[]>> = {
  Default: [
    { name: "bug", color: "#d73a4a", description: "Something is not working", exclusive: false },
    {
      name: "documentation",
      color: "#0075ca",
      description: "Improvements or additions to documentation",
      exclusive: false,
    },
    {
      name: "duplicate",
      color: "#cfd3d7",
      description: "This issue or pull request already exists",
      exclusive: false,
    },
    { name: "enhancement", color: "#a2eeef", description: "New feature or request", exclusive: false },
    { name: "good first issue", color: "#7057ff", description: "Good for newcomers", exclusive: false },
    { name: "help wanted", color: "#008672", description: "Extra attention is needed", exclusive: false },
    { name: "invalid", color: "#e4e669", description: "This does not seem right", exclusive: false },
    { name: "question", color: "#d876e3", description: "Further information is requested", exclusive: false },
    { name: "wontfix", color: "#ffffff", description: "This will not be worked on", exclusive: false },
  ],
  Advanced: [
    { name: "Kind/Bug", color: "#ee0701", description: "Something is not working", exclusive: true },
    { name: "Kind/Feature", color: "#0288d1", description: "A new feature", exclusive: true },
    {
      name: "Kind/Enhancement",
      color: "#84b6eb",
      description: "Improves an existing feature",
      exclusive: true,
    },
    { name: "Kind/Documentation", color: "#37474f", description: "Documentation changes", exclusive: true },
    { name: "Kind/Security", color: "#9c27b0", description: "A security issue", exclusive: true },
    { name: "Kind/Testing", color: "#795548", description: "Tests and test infrastructure", exclusive: true },
    { name: "Priority/Critical", color: "#b71c1c", description: "Must be fixed now", exclusive: true },
    { name: "Priority/High", color: "#d32f2f", description: "To be fixed soon", exclusive: true },
    { name: "Priority/Medium", color: "#e64a19", description: "To be fixed in due course", exclusive: true },
    { name: "Priority/Low", color: "#4caf50", description: "Fixed when there is time", exclusive: true },
    { name: "Status/Blocked", color: "#880e4f", description: "Waiting for something else", exclusive: true },
    {
      name: "Status/Need More Info",
      color: "#424242",
      description: "The reporter is asked for more",
      exclusive: true,
    },
    {
      name: "Status/Abandoned",
      color: "#222222",
      description: "Nobody works on this any more",
      exclusive: true,
    },
    {
      name: "Reviewed/Confirmed",
      color: "#795548",
      description: "The problem is reproduced",
      exclusive: true,
    },
    {
      name: "Reviewed/Duplicate",
      color: "#616161",
      description: "Already reported elsewhere",
      exclusive: true,
    },
    {
      name: "Reviewed/Invalid",
      color: "#546e7a",
      description: "Not a problem of this project",
      exclusive: true,
    },
    { name: "Reviewed/Won't Fix", color: "#eeeeee", description: "Will not be worked on", exclusive: true },
  ],
};

/** The label sets, by name. */
export const labelTemplates = {
  /** Every set's name, sorted. */
  list(): string[] {
    return Object.keys(SETS).sort();
  },
  /** One set's labels; NotFoundError when there is no set by that name. */
  get(name: string): readonly LabelTemplateEntry[] {
    const set = Object.hasOwn(SETS, name) ? SETS[name] : undefined;
    if (!set) throw new NotFoundError();
    return set;
  },
};
