import { validationMessages } from './messages.ts';
import type { ValidationMessage } from './messages.ts';

/**
 * The rule of `"x-count-within": "<sibling field>"` on an array: no more items than the sibling's
 * number, e.g. the hardware models planned for a service point against its hardware unit count.
 * A sibling that is not a number is left to its own rules.
 */
export function countWithinMessage(
  items: readonly unknown[],
  sibling: string,
  parent: Record<string, unknown> | undefined,
): ValidationMessage | undefined {
  const limit = parent?.[sibling];
  if (typeof limit !== 'number' || !Number.isFinite(limit)) return undefined;
  return items.length > limit ? validationMessages.countMismatch : undefined;
}
