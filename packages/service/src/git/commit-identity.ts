import type { Settings, User } from "@kiln/domain";
import type { SignatureInput } from "@kiln/git";

/** A name and address given in a request; either may be empty. */
export interface IdentityInput {
  readonly name?: string;
  readonly email?: string;
}

/** How a user signs commits Kiln writes for them: full name (else login), address unless kept private. */
export function userSignature(user: User, settings: Settings): { name: string; email: string } {
  const placeholder = `${user.lowerName}@noreply.${new URL(settings.server.rootUrl).hostname}`;
  return {
    name: user.fullName || user.name,
    email: user.keepEmailPrivate || !user.email ? placeholder : user.email,
  };
}

function identity(given: IdentityInput | undefined, doer: User, settings: Settings) {
  if (!given?.email) return undefined;
  if (given.email.toLowerCase() === doer.email.toLowerCase()) {
    const own = userSignature(doer, settings);
    return { name: given.name || own.name, email: own.email };
  }
  return { name: given.name ?? "", email: given.email };
}

/**
 * Author and committer of an API commit, as Forgejo's GetAuthorAndCommitterUsers picks them: an
 * identity counts when it has an e-mail address; a missing author is the committer, else the
 * doer; a missing committer is the author. Dates default to now.
 */
export function commitSignatures(
  doer: User,
  settings: Settings,
  given: {
    readonly author?: IdentityInput;
    readonly committer?: IdentityInput;
    readonly dates?: { readonly author?: Date; readonly committer?: Date };
  },
): { author: SignatureInput; committer: SignatureInput } {
  const now = new Date();
  const committerId = identity(given.committer, doer, settings);
  const authorId = identity(given.author, doer, settings) ?? committerId ?? userSignature(doer, settings);
  return {
    author: { ...authorId, date: given.dates?.author ?? now },
    committer: { ...(committerId ?? authorId), date: given.dates?.committer ?? now },
  };
}
