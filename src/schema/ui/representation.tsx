import { useCallback } from 'react';
import { useRecordContext, useResourceContext, useTranslate, type RaRecord } from 'react-admin';
import type { ResourceModel } from '../resource-model.ts';

/** The choice list of the resource's representation field (a price named by its parcel size), if it is a choice. */
export function representationChoices(model: ResourceModel): string | undefined {
  return model.fields.find((field) => field.source === model.representation)?.choices;
}

/**
 * A record's name in words: its `x-resource.representation` field, and when that field is a choice,
 * the choice's name in the user's language ("Return (end-user drop-off)", not "return").
 */
export function useRecordName(model: ResourceModel): (record: RaRecord | undefined) => string {
  const translate = useTranslate();
  const choices = representationChoices(model);
  return useCallback(
    (record) => {
      const value = record?.[model.representation] as unknown;
      if (value === undefined || value === null || value === '') return String(record?.id ?? '');
      const raw = String(value);
      return choices ? translate(`choices.${choices}.${raw}`, { _: raw }) : raw;
    },
    [translate, choices, model.representation],
  );
}

/**
 * The page title of a record named by a choice, worded as react-admin's own ("Price Return (end-user
 * drop-off)"): react-admin reads a resource's `recordRepresentation` as it is stored.
 */
export function RecordTitle({ model, page }: { model: ResourceModel; page: 'edit' | 'show' }) {
  const translate = useTranslate();
  const record = useRecordContext();
  const resource = useResourceContext() ?? model.name;
  const name = useRecordName(model);
  if (!record) return null;
  const recordRepresentation = name(record);
  return (
    <>
      {translate(`resources.${resource}.page.${page}`, {
        id: record.id,
        recordRepresentation,
        _: translate(`ra.page.${page}`, {
          name: translate(`resources.${resource}.name`, { smart_count: 1 }),
          id: record.id,
          recordRepresentation,
        }),
      })}
    </>
  );
}
