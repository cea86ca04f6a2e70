import {
  PHOTO_EXTENSIONS,
  PHOTO_MESSAGES,
  photoContentType,
  photoCountProblem,
  photoSizeProblem,
  safePhotoFileName,
  type PhotoContentType,
} from '../../photo-upload.ts';

/** A service point photo as the gateway gives it (`common#/$defs/photo`). */
export interface ServicePointPhoto {
  photo_id: string;
  url: string;
  file_name?: string;
  content_type?: string;
  size?: number;
}

/** Enough of a file's start for file-type to name any image format. */
const SNIFFED_BYTES = 4100;

/**
 * A record's own photo limits (`x-input.maxBytes`, `x-input.refusal` of its photo-gallery input): a
 * proposal's pictures are at most 1 MB, a sixth one or a larger one 'Image too large or too many'.
 */
export interface PhotoLimits {
  maxBytes?: number;
  refusal?: string;
}

/**
 * The gateway's three checks, made before anything is sent: room for one more photo, the size, and
 * the format read from the bytes. Gives the catalogue message key of the first that fails, or the
 * photo's real content type.
 */
export async function checkPhotoFile(
  file: Blob,
  storedCount: number,
  replacing = false,
  limits: PhotoLimits = {},
): Promise<{ problem: string } | { contentType: PhotoContentType }> {
  const problem = photoCountProblem(storedCount, replacing) ?? photoSizeProblem(file.size, limits.maxBytes);
  if (problem) return { problem: limits.refusal ?? problem };
  const head = new Uint8Array(await file.slice(0, SNIFFED_BYTES).arrayBuffer());
  const contentType = await photoContentType(head);
  return contentType ? { contentType } : { problem: PHOTO_MESSAGES.invalidFormat };
}

/** The name a photo is stored under: the user's, made safe, with the extension of its real format. */
export function photoFileName(name: string, contentType: PhotoContentType) {
  const extension = PHOTO_EXTENSIONS[contentType];
  const base = (safePhotoFileName(name) ?? 'photo').replace(/\.[^.]*$/, '') || 'photo';
  return `${base.slice(0, 240)}.${extension}`;
}

export function base64Of(bytes: Uint8Array) {
  let binary = '';
  // In slices: spreading megabytes into fromCharCode overflows the call stack.
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

export type Rotation = 0 | 90 | 180 | 270;

export const rotate = (rotation: Rotation, by: 90 | -90) => ((rotation + by + 360) % 360) as Rotation;

/** The image's size once turned: a quarter turn swaps width and height. */
export function rotatedSize(width: number, height: number, rotation: Rotation) {
  return rotation % 180 === 0 ? { width, height } : { width: height, height: width };
}

/** Spec 02 §9: the photo editor's output sizes. */
export const OUTPUT_FACTORS = [0.5, 1, 2] as const;
export type OutputFactor = (typeof OUTPUT_FACTORS)[number];

export interface CropArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function outputSize(crop: Pick<CropArea, 'width' | 'height'>, factor: OutputFactor) {
  return { width: Math.max(1, Math.round(crop.width * factor)), height: Math.max(1, Math.round(crop.height * factor)) };
}

/** Spec 02 §9: the cleared (edited) image downloads as JPEG at quality 0.75. */
export const DOWNLOAD_TYPE = 'image/jpeg';
export const DOWNLOAD_QUALITY = 0.75;
/** A saved photo keeps its format where a canvas can write it; JPEG keeps most of its detail at 0.92. */
const SAVE_QUALITY = 0.92;

export function savedType(original: PhotoContentType): PhotoContentType {
  return original === 'image/gif' ? 'image/png' : original;
}

/**
 * The edited photo: turned by `rotation`, cut to `crop` (pixels of the turned image, as react-easy-crop
 * gives them) and scaled by `factor`. JPEG has no transparency: it gets a white background.
 */
export async function renderPhoto(
  image: HTMLImageElement,
  edit: { crop: CropArea; rotation: Rotation; factor: OutputFactor },
  type: PhotoContentType,
  quality = type === 'image/jpeg' ? SAVE_QUALITY : undefined,
): Promise<Blob> {
  const turned = rotatedSize(image.naturalWidth, image.naturalHeight, edit.rotation);
  const whole = document.createElement('canvas');
  whole.width = turned.width;
  whole.height = turned.height;
  const wholeContext = whole.getContext('2d')!;
  wholeContext.translate(turned.width / 2, turned.height / 2);
  wholeContext.rotate((edit.rotation * Math.PI) / 180);
  wholeContext.drawImage(image, -image.naturalWidth / 2, -image.naturalHeight / 2);

  const size = outputSize(edit.crop, edit.factor);
  const output = document.createElement('canvas');
  output.width = size.width;
  output.height = size.height;
  const context = output.getContext('2d')!;
  if (type === 'image/jpeg') {
    context.fillStyle = '#fff';
    context.fillRect(0, 0, size.width, size.height);
  }
  context.imageSmoothingQuality = 'high';
  const { x, y, width, height } = edit.crop;
  context.drawImage(whole, x, y, width, height, 0, 0, size.width, size.height);
  return new Promise((resolve, reject) =>
    output.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('canvas.toBlob gave nothing'))), type, quality),
  );
}
