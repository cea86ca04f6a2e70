/**
 * The shared HTTP error handling of spec 01 §8: which message a failed gateway call shows.
 * Messages are translation keys (`http.*`) or the server's own text.
 */
export interface ErrorMessage {
  message: string;
  args?: Record<string, unknown>;
}

type Body = Record<string, unknown> | undefined;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** First message of a list of strings or `{ message }` objects, or of `{ field: message }`. */
function fromList(value: unknown): string | undefined {
  const items = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : [];
  for (const item of items) {
    const found = text(item) ?? text((item as { message?: unknown } | null)?.message);
    if (found) return found;
  }
  return undefined;
}

/** Every message of a (possibly nested) error list, for 422 answers. */
function allMessages(value: unknown): string[] {
  if (text(value)) return [value as string];
  if (Array.isArray(value)) return value.flatMap(allMessages);
  if (value && typeof value === 'object') {
    const { message, errors } = value as { message?: unknown; errors?: unknown };
    if (errors !== undefined) return allMessages(errors);
    if (text(message)) return [message as string];
    return Object.values(value).flatMap(allMessages);
  }
  return [];
}

export interface ErrorContext {
  /** What was being done, e.g. "Carriers", for the last-resort message. */
  context: string;
  /** A caller-supplied message for gateway code 313. */
  code313Message?: string;
}

export function errorMessage(status: number, body: Body, { context, code313Message }: ErrorContext): ErrorMessage {
  const data = body?.data as Body;
  // The gateway names its catalogue messages, so the app can show them in the user's language.
  if (status !== 401 && text(body?.message_key)) {
    const args = body?.args;
    return args && typeof args === 'object' && !Array.isArray(args)
      ? { message: body!.message_key as string, args: args as Record<string, unknown> }
      : { message: body!.message_key as string };
  }
  // A validation errors array ([{ field }]) names the first missing field.
  const [missing] = status === 400 || status === 422 ? requiredFieldMessages(body?.errors) : [];
  if (missing) return missing;
  switch (status) {
    case 401:
      return { message: 'http.need_to_login' };
    case 500:
      return text(body?.message)
        ? { message: body!.message as string }
        : { message: 'http.server_error', args: { context } };
    case 422: {
      const messages = allMessages(body?.errors ?? body?.error ?? body?.message);
      return messages.length ? { message: messages.join('\n') } : { message: 'http.save_failed' };
    }
    case 400: {
      if (body?.code === 313 && code313Message) return { message: code313Message };
      const found =
        text(body?.error) ??
        fromList((body?.response as Body)?.errors) ??
        text((body?.response as Body)?.message) ??
        text(data?.message) ??
        fromList(body?.errors) ??
        text(body?.message);
      return found ? { message: found } : { message: 'http.status', args: { status } };
    }
    case 403:
      return { message: text(body?.message) ?? text(body?.Message) ?? 'http.access_denied' };
    case 404:
      return { message: text(body?.message) ?? 'http.not_found' };
    case 409:
      return { message: text(body?.message) ?? 'http.conflict' };
    default:
      return { message: 'http.server_error', args: { context } };
  }
}

/**
 * A validation errors array ([{ field, message }]) shows a 'required' message naming the field,
 * its key with underscores as spaces.
 */
export function requiredFieldMessages(errors: unknown): ErrorMessage[] {
  if (!Array.isArray(errors)) return [];
  return errors
    .filter((e) => e && typeof e === 'object' && !text((e as { message?: unknown }).message))
    .map((e) => (e as { field?: unknown; key?: unknown }).field ?? (e as { key?: unknown }).key)
    .filter((field): field is string => typeof field === 'string')
    .map((field) => ({ message: 'http.field_required', args: { field: field.replace(/_/g, ' ') } }));
}
