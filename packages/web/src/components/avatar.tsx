import type { User } from "@kiln/domain";
import { accountAvatarHash } from "@kiln/service";
import { useHref } from "../layout/frame.js";

/** An account's avatar (served by the avatars route), decorative: its name is always beside it. */
export function Avatar(props: { user: Pick<User, "id" | "avatar">; size?: number }) {
  const href = useHref();
  const size = props.size ?? 20;
  return (
    <img
      class="avatar"
      src={href(`/avatars/${accountAvatarHash(props.user)}`)}
      width={size}
      height={size}
      alt=""
      loading="lazy"
    />
  );
}
