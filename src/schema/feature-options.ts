import type { FieldError } from './validators/messages.ts';
import { featureOption, type PermissionSet } from './permissions.ts';
import type { FeatureOptionHint, FieldModel, ResourceModel } from './resource-model.ts';

/**
 * The schema side of the feature options of spec 01 §6 (`x-input.option`, `x-input.requiredOption`):
 * one reading for the form, which hides an input or requires a value, and for the gateway, which keeps a
 * hidden field as stored and refuses a missing required one with the same message.
 */

type Model = Pick<ResourceModel, 'features' | 'fields'>;

const isOn = (set: PermissionSet, model: Model, hint: FeatureOptionHint) =>
  featureOption(set, model.features, hint.option, hint.fallback ?? false);

/** Whether the user's policies show the field's input (always, for a field without `x-input.option`). */
export function optionShowsField(set: PermissionSet, model: Model, field: FieldModel): boolean {
  return !field.input.option || isOn(set, model, field.input.option);
}

/** The fields whose input the user's options hide. */
export function fieldsHiddenByOptions(set: PermissionSet, model: Model): FieldModel[] {
  return model.fields.filter((field) => !optionShowsField(set, model, field));
}

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && !/\S/.test(value)) ||
  (Array.isArray(value) && !value.length);

/**
 * `validation.required` on each empty field that an option the user holds makes required. On an edit
 * (`stored`, the record as it was) only a value the record held cannot be cleared: a record saved before
 * the option was on stays editable until someone fills the field in.
 */
export function optionRequiredErrors(
  set: PermissionSet,
  model: Model,
  values: Record<string, unknown>,
  stored?: Record<string, unknown>,
): Record<string, FieldError> {
  return Object.fromEntries(
    model.fields
      .filter((field) => field.input.requiredOption && isOn(set, model, field.input.requiredOption))
      .filter((field) => optionShowsField(set, model, field) && isEmpty(values[field.source]))
      .filter((field) => !stored || !isEmpty(stored[field.source]))
      .map((field) => [field.source, { message: 'validation.required' }]),
  );
}
