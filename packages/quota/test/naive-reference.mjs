// A deliberately naive quota evaluator, written straight from the words of DECISIONS item 3 and
// kept independent of src/: strings everywhere, recursion instead of tables, bigints for every
// sum. The property test checks the engine against it; bench/quota-engine times both.

/** Parent of each subject in the tree of DECISIONS item 3 (size:all is the root; none is outside). */
const PARENT = {
  "size:all": null,
  sizeall: "size:all",
  "size:repos:all": "sizeall",
  "size:repos:public": "size:repos:all",
  "size:repos:private": "size:repos:all",
  sizelfs: "sizeall",
  "size:assets:all": "size:all",
  "size:assets:attachments:all": "size:assets:all",
  "size:assets:attachments:issues": "size:assets:attachments:all",
  "size:assets:attachments:releases": "size:assets:attachments:all",
  "size:assets:artifacts": "size:assets:all",
  "size:assets:packages:all": "size:assets:all",
  "size:wiki": "size:assets:all",
  none: null,
};

const ALIAS = { "size:git:all": "sizeall", "size:git:lfs": "sizelfs", "size:assets:wiki": "size:wiki" };

/** The leaf subjects that have a counter; every other subject sums its children. */
const LEAF = {
  "size:repos:public": "reposPublic",
  "size:repos:private": "reposPrivate",
  sizelfs: "lfs",
  "size:assets:attachments:issues": "issueAttachments",
  "size:assets:attachments:releases": "releaseAttachments",
  "size:assets:artifacts": "artifacts",
  "size:assets:packages:all": "packages",
};

/** @param {string} spelling */
export function naiveCanonical(spelling) {
  if (spelling in ALIAS) return ALIAS[spelling];
  if (spelling in PARENT) return spelling;
  throw new Error(`unrecognized quota limit subject: [subject: ${spelling}]`);
}

function ancestors(subject) {
  const parent = PARENT[subject];
  return parent === null ? [] : [parent, ...ancestors(parent)];
}

function related(a, b) {
  return a === b || ancestors(a).includes(b) || ancestors(b).includes(a);
}

/** Usage of one subject, as a bigint: its counter, or the sum over its children. */
export function naiveUsage(usage, spelling) {
  const subject = naiveCanonical(spelling);
  if (subject in LEAF) return BigInt(usage[LEAF[subject]]);
  let sum = 0n;
  for (const child of Object.keys(PARENT)) if (PARENT[child] === subject) sum += naiveUsage(usage, child);
  return sum;
}

export function naiveRuleApplies(rule, subject) {
  return rule.subjects.some((s) => related(naiveCanonical(s), naiveCanonical(subject)));
}

export function naiveRuleStands(rule, usage) {
  if (rule.limit === -1) return true;
  const distinct = [...new Set(rule.subjects.map(naiveCanonical))];
  let sum = 0n;
  for (const s of distinct) sum += naiveUsage(usage, s);
  return sum < BigInt(rule.limit);
}

export function naiveGroupStands(group, usage, subject) {
  return group.rules
    .filter((rule) => naiveRuleApplies(rule, subject))
    .every((rule) => naiveRuleStands(rule, usage));
}

export function naiveWithinQuota(groups, usage, subject) {
  if (naiveCanonical(subject) === "size:wiki") return true;
  if (groups.length === 0) return true;
  return groups.some((group) => naiveGroupStands(group, usage, subject));
}
