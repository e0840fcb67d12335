import type { ImageBlock } from "../core/messages.ts";
import { inside, protectedReason, resolveInWorkspace } from "../workspace/containment.ts";
import { realpathSync, readFileSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";

/** The largest image sent: the Messages API's limit, the lower of the two wires'. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp)$/i;

/** The `@path` mentions of a task that name an image by their extension, in order, once each. Pure. */
export function imageMentions(task: string): string[] {
  const mentioned = [...task.matchAll(/(?:^|\s)@([^\s@]+)/g)].map((m) => m[1]!.replace(/[.,;:!?)]+$/, ""));
  const found = mentioned.filter((p) => IMAGE_EXTENSIONS.test(p));
  return [...new Set(found)];
}

/** What the first bytes say the image is; undefined when they are no image these wires take. Pure. */
export function imageType(bytes: Uint8Array): ImageBlock["mediaType"] | undefined {
  const starts = (...b: number[]) => b.every((x, i) => bytes[i] === x);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.slice(8, 12)) === "WEBP") return "image/webp";
  return undefined;
}

/**
 * The images a task mentions, read through containment (a path outside the workspace, a protected
 * file or a link out is refused as any read is) and checked by their bytes and size. Either every
 * image, or the one line that says why one cannot be sent: nothing is dropped without a word.
 */
export function attachImages(root: string, home: string, task: string, typed = ""): { images: ImageBlock[] } | { problem: string } {
  const images: ImageBlock[] = [];
  const own = new Set(imageMentions(typed).filter((p) => isAbsolute(p)));
  for (const path of imageMentions(task)) {
    let bytes: Buffer;
    try {
      const r = own.has(path) ? personalImage(root, home, path) : resolveInWorkspace(root, path, { home });
      if (!r.exists) return { problem: `@${path} is not there; nothing was sent` };
      const size = statSync(r.absolute).size;
      const mb = (n: number) => (n / 1024 / 1024).toFixed(n % (1024 * 1024) ? 1 : 0);
      if (size > MAX_IMAGE_BYTES) return { problem: `@${path} is ${mb(size)} MB, over the ${mb(MAX_IMAGE_BYTES)} MB an image may be; nothing was sent` };
      bytes = readFileSync(r.absolute);
    } catch (e) {
      return { problem: `@${path} cannot be attached: ${(e as Error).message}; nothing was sent` };
    }
    const mediaType = imageType(bytes);
    if (!mediaType) return { problem: `@${path} is not a PNG, JPEG, GIF or WebP image; nothing was sent` };
    images.push({ type: "image", mediaType, data: bytes.toString("base64"), source: path });
  }
  return { images };
}

/**
 * An image the person named by its absolute path in what they typed (a screenshot on their desktop):
 * read where it is, outside the workspace too, since they chose it; never a protected file (a key,
 * a credential, anything in a dot-directory of the home), and only ever sent as an image (its bytes
 * say so). A path that a command template or piped input wrote is read through containment instead.
 */
function personalImage(root: string, home: string, path: string): { exists: boolean; absolute: string } {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return { exists: false, absolute: path };
  }
  if (inside(root, real)) return resolveInWorkspace(root, real, { home });
  const why = protectedReason(real.slice(1), real, home);
  if (why) throw new Error(`${path}: ${why}`);
  if (!statSync(real).isFile()) throw new Error(`${path} is not a file`);
  return { exists: true, absolute: real };
}

/**
 * Models known to take no image input (their vendors' documentation); data, kept small. Any other
 * model is sent the image, and an endpoint that refuses it says so in its error.
 */
const TEXT_ONLY_MODELS = ["deepseek-chat", "deepseek-reasoner", "glm-4.6", "glm-4.5", "glm-4.5-air", "MiniMax-M2"];

/** Whether a model is known to take no images. Pure. */
export const takesNoImages = (model: string): boolean => TEXT_ONLY_MODELS.includes(model);
