import type { User } from "@kiln/domain";
import { Avatar } from "./avatar.js";
import { Icon } from "./icon.js";
import { TimeAgo } from "./time-ago.js";

/** Only http(s) websites become links; anything else is shown as text. */
function safeWebsite(website: string): string | undefined {
  try {
    const url = new URL(website);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** An account's card: avatar, names, description, location, website and when it joined. */
export function ProfileCard(props: { account: User }) {
  const { account } = props;
  const website = account.website ? safeWebsite(account.website) : undefined;
  return (
    <div class="profile-card">
      <Avatar user={account} size={96} />
      <div>
        <h1 class="profile-name">
          {account.fullName ? <span class="profile-full-name">{account.fullName}</span> : null}
          <span class="profile-login">{account.name}</span>
          {account.visibility !== "public" ? (
            <span class="badge">{account.visibility === "private" ? "Private" : "Limited"}</span>
          ) : null}
        </h1>
        {account.description ? <p class="profile-description">{account.description}</p> : null}
        <ul class="profile-facts">
          {account.location ? (
            <li>
              <Icon name="location" /> {account.location}
            </li>
          ) : null}
          {website ? (
            <li>
              <Icon name="link" />{" "}
              <a href={website} rel="nofollow noopener noreferrer">
                {account.website}
              </a>
            </li>
          ) : account.website ? (
            <li>
              <Icon name="link" /> {account.website}
            </li>
          ) : null}
          <li>
            <Icon name="clock" /> Joined <TimeAgo date={account.createdAt} />
          </li>
        </ul>
      </div>
    </div>
  );
}
