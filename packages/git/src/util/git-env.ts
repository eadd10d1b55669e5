/**
 * What keeps the machine's git configuration out of Kiln's git processes: no system file
 * (`/etc/gitconfig`: a `filter.lfs.process` with `required = true` there would make every
 * archive start git-lfs, and a `commit.gpgsign` would change what Kiln writes) and no user file.
 */
const NO_MACHINE_CONFIG = { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } as const;

/**
 * The environment of the git commands Kiln runs for itself (reads, archives, writes for the API):
 * only `PATH`, no system or user configuration, no prompts, messages in English. `extra` is
 * added last.
 */
export function isolatedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    ...NO_MACHINE_CONFIG,
    GIT_TERMINAL_PROMPT: "0",
    LC_ALL: "C",
    ...extra,
  };
}

/**
 * `base` (the server's own environment by default) without the machine's git configuration:
 * for git processes that run hooks or run inside one (receive-pack, the pre-receive hook's own
 * git commands), which need what git and the transport put in the environment (quarantine
 * directories, the push policy, `HOME` for the hook's interpreter) but not `/etc/gitconfig`.
 */
export function withoutMachineConfig(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...base, ...NO_MACHINE_CONFIG };
}
