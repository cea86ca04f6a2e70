import { fileTypeFromBuffer } from 'file-type';

/** Spec 02 §5 and §9: a service point holds at most 5 photos of at most 5 MB each. */
export const PHOTO_MAX_COUNT = 5;
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const PHOTO_FILE_NAME_MAX = 255;

/** Raster formats every browser shows in an `<img>`; judged by the bytes, never by the name. */
export const PHOTO_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export type PhotoContentType = (typeof PHOTO_CONTENT_TYPES)[number];

export const PHOTO_EXTENSIONS: Record<PhotoContentType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** Catalogue message keys, the same in the browser's checks and in the gateway's answers. */
export const PHOTO_MESSAGES = {
  tooMany: 'service_point_photos.too_many',
  tooLarge: 'catalogue.file_too_large',
  invalidFormat: 'service_point_photos.invalid_format',
} as const;

export const isPhotoContentType = (value: string): value is PhotoContentType =>
  (PHOTO_CONTENT_TYPES as readonly string[]).includes(value);

/** Whether one more photo fits beside the `stored` ones; a replaced photo keeps its place. */
export function photoCountProblem(stored: number, replacing = false): string | undefined {
  return !replacing && stored >= PHOTO_MAX_COUNT ? PHOTO_MESSAGES.tooMany : undefined;
}

export function photoSizeProblem(size: number, maxBytes = PHOTO_MAX_BYTES): string | undefined {
  return size > maxBytes ? PHOTO_MESSAGES.tooLarge : undefined;
}

/** The photo format read from the file's first bytes, or undefined when it is none of ours. */
export async function photoContentType(bytes: Uint8Array): Promise<PhotoContentType | undefined> {
  const found = await fileTypeFromBuffer(bytes);
  return found && isPhotoContentType(found.mime) ? found.mime : undefined;
}

/**
 * A file name to store and offer for download: no folders, no control characters, at most 255
 * characters. Undefined when nothing usable is left.
 */
export function safePhotoFileName(name: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are what is being removed
  const base = (name.split(/[/\\]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!base || base === '.' || base === '..') return undefined;
  return base.slice(-PHOTO_FILE_NAME_MAX);
}
