import type { CommitVerification } from "@kiln/service";
import { Icon } from "./icon.js";

/** Forgejo's words for its verification reasons (`gpg.error.*` keys). */
const REASONS: Readonly<Record<string, string>> = {
  "gpg.error.not_signed_commit": "Not signed",
  "gpg.error.no_gpg_keys_found": "No known key found for this signature in the database",
  "gpg.error.probable_bad_signature":
    "Warning! Although there is a key with this ID in the database it does not verify this commit! This commit is SUSPICIOUS.",
  "gpg.error.extract_sign": "Failed to extract signature",
  "gpg.error.no_committer_account": "No account linked to committer's email address",
};

/** The words for a verification's reason. */
export function verificationReason(v: CommitVerification): string {
  return REASONS[v.reason] ?? v.reason;
}

/**
 * A signed commit's badge in lists: "Verified" (with who signed) or "Unverified" (with why), as
 * Forgejo marks the sha; nothing for an unsigned commit.
 */
export function SignatureBadge(props: { verification: CommitVerification | undefined }) {
  const v = props.verification;
  if (!v?.signature) return null;
  return v.verified ? (
    <span class="badge sig-verified" title={`Signed by ${v.signer?.name ?? v.reason}`}>
      <Icon name="verified" /> Verified
    </span>
  ) : (
    <span class="badge sig-unverified" title={verificationReason(v)}>
      <Icon name="unverified" /> Unverified
    </span>
  );
}

/** The commit page's signature bar: who signed it, or why it could not be verified. */
export function SignatureBar(props: { verification: CommitVerification | undefined }) {
  const v = props.verification;
  if (!v?.signature) return null;
  return v.verified ? (
    <p class="sig-bar sig-verified">
      <Icon name="verified" /> Signed by <strong>{v.signer?.name ?? ""}</strong>
      <span class="muted"> · {v.reason}</span>
    </p>
  ) : (
    <p class="sig-bar sig-unverified">
      <Icon name="unverified" /> {verificationReason(v)}
    </p>
  );
}
