// Uploaded images in PostgreSQL, by the SHA-256 of their bytes (docs/decisions/021).
import type { MediaType } from "@trainwise/contract/media";
import { eq, inArray } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { media } from "../../db/schema.ts";

export interface NewMedia {
  sha256: string;
  contentType: MediaType;
  bytes: Buffer;
  width: number;
  height: number;
  uploadedBy: string | null;
}

/** Stores an image once: the same bytes uploaded again are already there under the same name. */
export async function saveMedia(db: Executor, image: NewMedia): Promise<void> {
  await db.insert(media).values(image).onConflictDoNothing({ target: media.sha256 });
}

/** An image's type and bytes, or undefined. */
export async function findMedia(
  db: Executor,
  sha256: string,
): Promise<{ contentType: MediaType; bytes: Buffer } | undefined> {
  const [row] = await db
    .select({ contentType: media.contentType, bytes: media.bytes })
    .from(media)
    .where(eq(media.sha256, sha256));
  return row && { contentType: row.contentType as MediaType, bytes: row.bytes };
}

/** The bytes of the images among `sha256s` that are stored, by SHA-256. */
export async function findMediaBytes(db: Executor, sha256s: string[]): Promise<Map<string, Buffer>> {
  if (sha256s.length === 0) return new Map();
  const rows = await db
    .select({ sha256: media.sha256, bytes: media.bytes })
    .from(media)
    .where(inArray(media.sha256, sha256s));
  return new Map(rows.map((row) => [row.sha256, row.bytes]));
}
