import {
  describeVerdict,
  explainQuota,
  isWithinQuota,
  parseByteSize,
  parseSubject,
  type QuotaGroup,
  type QuotaUsage,
  resolveGroups,
} from "@kiln/quota";

// A group as an admin stored it: rule subjects keep the spelling they were written with.
const assets: QuotaGroup = {
  name: "assets",
  rules: [
    {
      name: "releases-packages-lfs",
      limit: parseByteSize("1MiB"),
      subjects: ["size:assets:attachments:releases", "size:assets:packages:all", "size:git:lfs"],
    },
    { name: "packages", limit: 512 * 1024, subjects: ["size:assets:packages:all"] },
  ],
};

// One owner's usage in bytes, one counter per leaf subject (your storage provides it).
const usage: QuotaUsage = {
  reposPublic: 40_000,
  reposPrivate: 0,
  lfs: 300_000,
  issueAttachments: 0,
  releaseAttachments: 200_000,
  artifacts: 0,
  packages: 600_000,
};

// The owner has no group of its own, so `[quota] DEFAULT_GROUPS = assets` applies.
const { source, groups } = resolveGroups({
  assigned: [],
  defaultGroupNames: ["assets"],
  knownGroups: [assets],
  defaultTotal: parseByteSize("-1"),
});
console.log(source); // → default-groups

const subject = parseSubject("size:assets:packages:all"); // throws UnrecognizedSubjectError on anything else
console.log(isWithinQuota(groups, usage, subject)); // → false
console.log(isWithinQuota(groups, usage, "size:repos:all")); // → true
console.log(describeVerdict(explainQuota(groups, usage, subject)));
// → size:assets:packages:all is over quota: group "assets" fails (rule "releases-packages-lfs" uses 1100000 bytes, limit 1048576; rule "packages" uses 600000 bytes, limit 524288)
