import type { CommitUsers } from "@kiln/service";
import { useHref } from "../layout/frame.js";
import { accountPath } from "../urls.js";
import { Avatar } from "./avatar.js";
import { Icon } from "./icon.js";

/**
 * A commit's author or committer: the account the address belongs to (avatar and link) when there
 * is one, else the name git recorded.
 */
export function CommitPerson(props: { person: { name: string; email: string }; users: CommitUsers }) {
  const href = useHref();
  const user = props.users.get(props.person.email);
  return user ? (
    <span class="commit-person">
      <Avatar user={user} />
      <a href={href(accountPath(user.name))}>{user.name}</a>
    </span>
  ) : (
    <span class="commit-person">
      <Icon name="person" /> <span>{props.person.name}</span>
    </span>
  );
}
