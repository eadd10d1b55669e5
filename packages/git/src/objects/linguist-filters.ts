const VENDORED = [
  /(^|\/)(vendor|vendors|node_modules|bower_components|third[_-]?party|external|deps)\//i,
  /(^|\/)\.yarn\//,
  /(^|\/)(jquery|bootstrap)[^/]*\.(js|css)$/i,
  /(^|\/)Godeps\//,
];

const GENERATED = [
  /\.min\.(js|css)$/i,
  /[-.]bundle\.js$/i,
  /\.map$/i,
  /(^|\/)(dist|build|out|target)\//,
  /\.(pb|pb\.gw)\.go$/,
  /_pb2?\.py$/,
  /\.generated\.[a-z]+$/i,
  /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|go\.sum|composer\.lock|Gemfile\.lock)$/,
];

const DOCUMENTATION = [
  /(^|\/)(docs?|documentation|examples?)\//i,
  /(^|\/)(README|CHANGELOG|LICENSE|COPYING)(\.[^/]*)?$/i,
];

/**
 * Whether linguist would leave `path` out of language statistics: vendored code, generated or
 * minified files, documentation and dot files (a coarse version of enry's checks Forgejo uses).
 */
export function isExcludedFromLanguageStats(path: string): boolean {
  if (path.split("/").some((segment) => segment.startsWith("."))) return true;
  return [...VENDORED, ...GENERATED, ...DOCUMENTATION].some((pattern) => pattern.test(path));
}
