import {
  BadRequestError,
  InvalidArgumentError,
  PayloadTooLargeError,
  type PictureSettings,
} from "@kiln/domain";
import { imageSize } from "image-size";

/** The image types an avatar may have (Forgejo decodes PNG, JPEG, GIF and WebP), by image-size's name. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

/** A checked avatar image: its bytes and the content type detected from them. */
export interface AvatarImage {
  readonly bytes: Buffer;
  readonly contentType: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes an `UpdateUserAvatarOption.image` and checks it as Forgejo does (modules/avatar
 * ProcessAvatarImage and `[picture]`): standard base64 (400 otherwise, Forgejo's DecodeImage),
 * at most `AVATAR_MAX_FILE_SIZE` bytes (413), a PNG, JPEG, GIF or WebP image recognised from its
 * bytes (422) no larger than `AVATAR_MAX_WIDTH` × `AVATAR_MAX_HEIGHT` (422). The type and the
 * dimensions are read by the image-size library rather than by parsing headers here.
 */
export function checkAvatarImage(image: string, settings: PictureSettings): AvatarImage {
  const text = image.replace(/\s+/g, "");
  if (text.length % 4 !== 0 || !BASE64.test(text)) {
    throw new BadRequestError("illegal base64 data: image must be base64 encoded");
  }
  const bytes = Buffer.from(text, "base64");
  if (bytes.length > settings.avatarMaxFileSize) {
    throw new PayloadTooLargeError(
      `The uploaded file size (${Math.ceil(bytes.length / 1024)} KiB) exceeds the maximum size (${Math.floor(settings.avatarMaxFileSize / 1024)} KiB).`,
    );
  }
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    throw unknownFormat();
  }
  const contentType = size.type ? CONTENT_TYPES[size.type] : undefined;
  if (!contentType) throw unknownFormat();
  if (size.width > settings.avatarMaxWidth) {
    throw new InvalidArgumentError(`image width is too large: ${size.width} > ${settings.avatarMaxWidth}`);
  }
  if (size.height > settings.avatarMaxHeight) {
    throw new InvalidArgumentError(`image height is too large: ${size.height} > ${settings.avatarMaxHeight}`);
  }
  return { bytes, contentType };
}

function unknownFormat(): InvalidArgumentError {
  return new InvalidArgumentError(
    "image.DecodeConfig: image: unknown format (an avatar must be a PNG, JPEG, GIF or WebP image)",
  );
}
