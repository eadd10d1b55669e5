import type { Attachment } from "@kiln/domain";
import { useHref } from "../layout/frame.js";
import { Icon } from "./icon.js";

/** Where an attachment is downloaded: Kiln's `/attachments/{uuid}` (access checked there), or its external http(s) link. */
function linkOf(a: Attachment, href: (path: string) => string): string | undefined {
  if (a.externalUrl === null) return href(`/attachments/${encodeURIComponent(a.uuid)}`);
  return /^https?:\/\//i.test(a.externalUrl) ? a.externalUrl : undefined;
}

/** A post's attachments as download links with their sizes. */
export function AttachmentList(props: { files: readonly Attachment[] | undefined }) {
  const href = useHref();
  if (!props.files || props.files.length === 0) return null;
  return (
    <ul class="attachments" aria-label="Attachments">
      {props.files.map((a) => {
        const link = linkOf(a, href);
        return (
          <li>
            <Icon name="paperclip" />{" "}
            {link ? (
              <a href={link} rel={a.externalUrl ? "nofollow noopener noreferrer" : undefined}>
                {a.name}
              </a>
            ) : (
              a.name
            )}{" "}
            <span class="muted">({(a.size / 1024).toFixed(1)} KiB)</span>
          </li>
        );
      })}
    </ul>
  );
}
