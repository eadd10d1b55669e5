import type { TestUser } from "../support.js";
import type { Credential } from "./raw-caller.js";

/** The hostile actors of the property test. */
export const ACTORS = ["anonymous", "outsider", "public-only", "collaborator", "restricted"] as const;
export type ActorName = (typeof ACTORS)[number];

/** A repository of the fixture and what a request about it needs. */
export interface WorldRepo {
  readonly key: string;
  readonly owner: string;
  readonly name: string;
  /** A fork of it in the same namespace (`<name>-fork`): what `/sync_fork` routes aim at. */
  readonly fork?: string;
  readonly id: number;
  readonly commit: string;
  readonly readmeBlob: string;
  /** A label and a milestone of the repository (their names start with the repository's). */
  readonly labelId: number;
  readonly milestoneId: number;
  /** A comment on the repository's first issue. */
  readonly commentId: number;
  /** A time tracked on the repository's first issue. */
  readonly timeId: number;
  /** An open pull request (its title names the repository) from the branch `pullHead` into main. */
  readonly pullIndex: number;
  readonly pullHead: string;
  /** A merged pull request. */
  readonly mergedPullIndex: number;
  /** The merge commit of that pull request (for `/commits/{sha}/pull`). */
  readonly mergeCommit: string;
  /** A review of the open pull request and its line comment (their bodies name the repository). */
  readonly reviewId: number;
  readonly reviewCommentId: number;
  /** A published release on tag v1 (its title names the repository) and its asset. */
  readonly releaseId: number;
  readonly releaseAssetId: number;
  /** A tag protection rule (its pattern starts with the repository's name). */
  readonly tagProtectionId: number;
  /** The sha of an annotated tag object on main (its message names the repository). */
  readonly annotatedTag: string;
  /** Attachments of the first issue and of its comment (their names start with the repository's). */
  readonly issueAttachmentId: number;
  readonly commentAttachmentId: number;
  /** An Actions artifact of run 1 (its name starts with the repository's). */
  readonly artifactId: number;
  /** A notification thread of the victim about the first issue (social-fixture.ts). */
  readonly notificationId?: number;
  /** A team of the owning organization that covers this repository, if any. */
  readonly teamId?: number;
  /** A user who may read it (collaborator), if any. */
  readonly collaborator?: string;
}

export interface WorldOrg {
  readonly key: string;
  readonly name: string;
  readonly id: number;
  readonly teamId: number;
  readonly teamName: string;
  /** A member of the team (and of the organization). */
  readonly teamMember: string;
  /** A label of the organization (its name starts with the organization's). */
  readonly labelId: number;
}

/** A package of the fixture (generic, version 1.0.0, one file), maybe linked to a repository. */
export interface WorldPackage {
  readonly key: string;
  readonly owner: string;
  readonly type: string;
  readonly name: string;
  readonly version: string;
  /** A repository of the owner (the `{repo_name}` of linkPackage). */
  readonly repoName: string;
}

/** A fork the outsider owns of a private repository it may not read (fork-fixture.ts). */
export interface WorldFork {
  readonly owner: string;
  readonly name: string;
}

/** Something an actor must not see, by name (a commit by its sha) and id. */
export interface Secret {
  readonly name: string;
  readonly kind: "repo" | "org" | "user" | "team" | "package" | "commit";
  readonly id: number;
  readonly hiddenFrom: ReadonlySet<ActorName>;
}

/** The property test's fixture: a victim with private things, and the hostile actors. */
export interface World {
  readonly admin: TestUser;
  readonly victim: TestUser;
  readonly victimPublicRepo: string;
  /** A clone URL of the victim's public repository that migrations can reach (or a dead one). */
  readonly cloneUrl: string;
  readonly victimTokenId: number;
  /** A read collaborator of every fixture repository (not an actor): the `{collaborator}` filler. */
  readonly friend: string;
  readonly privateUser: TestUser;
  readonly repos: readonly WorldRepo[];
  readonly orgs: readonly WorldOrg[];
  /** Packages of private owners, and of the victim linked to its private repository. */
  readonly packages: readonly WorldPackage[];
  readonly quotaRule: string;
  readonly quotaGroup: string;
  readonly secrets: readonly Secret[];
  readonly actors: Readonly<Record<ActorName, { credential: Credential; name?: string }>>;
  /** Webhooks of the fixture (hook-fixture.ts). */
  readonly hooks: WorldHooks;
  /** SSH, GPG and deploy keys of the fixture (key-fixture.ts). */
  readonly keys: WorldKeys;
  /** The site admin's own OAuth2 application (oauth2-fixture.ts): nobody else may see or change it. */
  readonly oauth2App: { readonly id: number; readonly target: string };
  /** A waiting Actions run of each fixture repository, by repository id (action-fixture.ts). */
  readonly actionRuns: Readonly<Record<number, number>>;
  /** The outsider's fork of the victim's private repository, for `/sync_fork` (fork-fixture.ts). */
  readonly hiddenParentFork: WorldFork;
}

/** Hook ids by repository id and organization name, the site admin's own hook and a system hook. */
export interface WorldHooks {
  readonly repo: Readonly<Record<number, number>>;
  readonly org: Readonly<Record<string, number>>;
  readonly user: { readonly id: number; readonly target: string };
  readonly admin: { readonly id: number; readonly target: string };
}

/** The site admin's SSH and GPG key, and deploy key ids by repository id. */
export interface WorldKeys {
  readonly ssh: { readonly id: number; readonly target: string };
  readonly gpg: { readonly id: number; readonly target: string };
  readonly deploy: Readonly<Record<number, number>>;
}
