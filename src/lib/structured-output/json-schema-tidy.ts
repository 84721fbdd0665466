// Adjustments to a JSON Schema from a schema library before it goes out as a response format.

/**
 * zod's `int()` writes the safe-integer range into every integer; it constrains nothing a
 * model would produce and some guided-decoding backends choke on such bounds.
 */
export function dropSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) dropSafeIntegerBounds(item);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const obj = node as Record<string, unknown>;
  if (obj.type === "integer") {
    if (obj.minimum === Number.MIN_SAFE_INTEGER) delete obj.minimum;
    if (obj.maximum === Number.MAX_SAFE_INTEGER) delete obj.maximum;
  }
  for (const key in obj) dropSafeIntegerBounds(obj[key]);
}
