import type { User } from "@kiln/domain";
import { useHref } from "../layout/frame.js";
import { accountPath } from "../urls.js";
import { Avatar } from "./avatar.js";
import { Icon } from "./icon.js";
import { TimeAgo } from "./time-ago.js";

function AccountItem(props: { account: User }) {
  const href = useHref();
  const { account } = props;
  return (
    <li class="list-item list-item-account">
      <Avatar user={account} size={40} />
      <div class="list-item-main">
        <h3 class="list-item-title">
          <a href={href(accountPath(account.name))}>
            <strong>{account.name}</strong>
          </a>
          {account.fullName ? <span class="muted">{account.fullName}</span> : null}
          {account.visibility !== "public" ? (
            <span class="badge">{account.visibility === "private" ? "Private" : "Limited"}</span>
          ) : null}
        </h3>
        {account.description ? <p class="list-item-text">{account.description}</p> : null}
        <p class="list-item-text muted">
          {account.location ? (
            <span class="meta">
              <Icon name="location" /> {account.location}
            </span>
          ) : null}
          <span class="meta">
            <Icon name="clock" /> Joined <TimeAgo date={account.createdAt} />
          </span>
        </p>
      </div>
    </li>
  );
}

/** A list of users or organizations, or a line saying there are none. */
export function AccountList(props: { accounts: readonly User[]; empty?: string }) {
  if (props.accounts.length === 0) return <p class="empty">{props.empty ?? "Nobody here yet."}</p>;
  return (
    <ul class="list">
      {props.accounts.map((account) => (
        <AccountItem account={account} />
      ))}
    </ul>
  );
}

/** Accounts as a row of avatars with their names (an organization's members, a user's organizations). */
export function AccountLinks(props: { accounts: readonly User[] }) {
  const href = useHref();
  return (
    <ul class="account-links">
      {props.accounts.map((account) => (
        <li>
          <a href={href(accountPath(account.name))}>
            <Avatar user={account} size={24} /> {account.name}
          </a>
        </li>
      ))}
    </ul>
  );
}
