import type { QueryClient } from '@tanstack/react-query';
import type { TranslateFunction } from 'react-admin';
import type { GatewayApi } from './gateway-api.ts';
import type { ImportVocabulary } from '../bulk-import.ts';
import type { ResourceModel } from '../resource-model.ts';
import { lookupQuery, translatedChoices } from './lookup-choices.ts';

const key = (text: string) => text.trim().toLowerCase();

/** Per lookup field, the name the app shows for each id: the preview shows the rows as the list would. */
export type ShownNames = Record<string, Record<string, string>>;

/**
 * The names the CSV export writes for a resource in the user's language (headers, lookup and choice
 * names, Yes/No, Active/Deactive), so that the import reads a file the export wrote. A lookup value is
 * also known by the gateway's own (English) name, as a file written by another system would give it.
 */
export async function importVocabulary(
  model: ResourceModel,
  translate: TranslateFunction,
  locale: string,
  dataProvider: Pick<GatewayApi, 'call'>,
  queryClient: QueryClient,
): Promise<{ vocabulary: ImportVocabulary; shownNames: ShownNames }> {
  const headers: ImportVocabulary['headers'] = {};
  const values: ImportVocabulary['values'] = {};
  const shownNames: ShownNames = {};
  for (const field of model.fields) {
    headers[key(translate(`resources.${model.name}.fields.${field.source}`, { _: field.source }))] = field.source;
    if (field.choices && field.values) {
      const names: Record<string, string | number> = {};
      for (const value of field.values) {
        names[key(String(value))] = value;
        names[key(translate(`choices.${field.choices}.${value}`, { _: String(value) }))] = value;
      }
      values[field.source] = names;
    }
  }
  await Promise.all(
    model.fields
      .filter((field) => field.lookup?.source && !field.readOnly)
      .map(async (field) => {
        const source = field.lookup!.source!;
        const items = await queryClient.fetchQuery(lookupQuery(dataProvider, source));
        const names: Record<string, string | number> = {};
        for (const item of items) names[key(item.name)] = item.id;
        const shown: Record<string, string> = {};
        for (const item of translatedChoices(source, items, translate, locale)) {
          names[key(item.name)] = item.id;
          shown[String(item.id)] = item.name;
        }
        values[field.source] = names;
        shownNames[field.source] = shown;
      }),
  );
  return {
    vocabulary: {
      headers,
      values,
      trueWords: [translate('table.yes'), translate('table.active')].map(key),
      falseWords: [translate('table.no'), translate('table.deactive')].map(key),
    },
    shownNames,
  };
}
