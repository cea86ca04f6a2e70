import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocaleState, useTranslate } from 'react-admin';
import type { TranslateFunction } from 'react-admin';
import { useGateway, type GatewayApi } from './gateway-api.ts';

export interface Choice {
  id: number | string;
  name: string;
  /** `#rrggbb`, for lists whose items carry one (the hardware badges). */
  color?: string;
}

const NO_CHOICES: Choice[] = [];

/**
 * Choices of an `x-lookup.source` such as `webtool/lists?type=location_types`: fetched once per
 * session and shared by every list, filter and form that names the same source; named in the
 * app's language (see `translatedChoices`).
 */
export function useLookupChoices(source: string | undefined): Choice[] {
  const dataProvider = useGateway();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { data } = useQuery({ ...lookupQuery(dataProvider, source ?? ''), enabled: Boolean(source) });
  return useMemo(
    () => (source && data ? translatedChoices(source, data, translate, locale) : NO_CHOICES),
    [source, data, translate, locale],
  );
}

/**
 * The gateway names `webtool/lists` items in English, as production does. The app names an item with
 * the locale key `lookups.<type>.<column_id>` when it has one, else with the gateway's name (an item
 * added later reads in English rather than not at all), and orders the items by that name.
 */
export function translatedChoices(
  source: string,
  choices: Choice[],
  translate: TranslateFunction,
  locale: string,
): Choice[] {
  const type = new URL(source, 'http://lookup.invalid').searchParams.get('type');
  if (!type) return choices;
  return choices
    .map((choice) => ({ ...choice, name: translate(`lookups.${type}.${choice.id}`, { _: choice.name }) }))
    .sort((a, b) => a.name.localeCompare(b.name, locale));
}

/** The query behind `useLookupChoices`, for code that needs the choices outside rendering (the CSV export). */
export function lookupQuery(caller: Pick<GatewayApi, 'call'>, source: string) {
  return {
    queryKey: ['lookup', source],
    staleTime: Infinity,
    gcTime: Infinity,
    queryFn: async (): Promise<Choice[]> => {
      const url = new URL(source, 'http://lookup.invalid');
      const response = await caller.call<{
        data: { column_id: number | string; column_name: string; color?: string }[];
      }>({
        method: 'GET',
        path: url.pathname.replace(/^\//, ''),
        query: Object.fromEntries(url.searchParams),
      });
      return response.data.map((item) => ({
        id: item.column_id,
        name: item.column_name,
        ...(item.color && { color: item.color }),
      }));
    },
  };
}
