// GET /api/health/live (liveness), GET /api/health/ready and its original name GET /api/health (readiness).
import { z } from "zod";

export const healthSchema = z.object({ status: z.literal("ok"), database: z.literal("up") });

export const livenessSchema = z.object({ status: z.literal("ok") });
