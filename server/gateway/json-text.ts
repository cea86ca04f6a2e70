/**
 * An answer whose JSON is already written (a list page of the database's own document texts,
 * `listRecordTexts`): the webtool routes' reply serialiser sends its text as it is, where any other
 * answer is serialised. Saves parsing the documents only to serialise them again (issue 32).
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** The webtool routes' reply serialiser: `JsonText` as it is, anything else as JSON. */
export function serialiseReply(payload: unknown): string {
  return payload instanceof JsonText ? payload.text : JSON.stringify(payload);
}
