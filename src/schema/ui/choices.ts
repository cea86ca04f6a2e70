import type { FieldModel } from '../resource-model.ts';

/** Choices of an enum field, named by `choices.<key>.<value>` in the locale files. */
export function enumChoices(field: FieldModel) {
  return (field.values ?? []).map((value) => ({
    id: value,
    name: field.choices ? `choices.${field.choices}.${value}` : String(value),
  }));
}
