import { useDataProvider, type RaRecord } from 'react-admin';
import { cachePrintData, printKeys, type BookingLabelItem } from '../../schema/print-cache.ts';

type LabelCalls = {
  action: <T>(
    resource: string,
    method: 'GET',
    opname: string,
    body?: undefined,
    query?: Record<string, unknown>,
  ) => Promise<T>;
};

/**
 * A booking's labels: the gateway's label items (carrier, service point, end user) cached for the
 * print page (spec 01 §2.4), whose address it answers.
 */
export function useOpenLabels() {
  const dataProvider = useDataProvider() as unknown as LabelCalls;
  return async (record: RaRecord) => {
    const id = String(record.piece_uid ?? record.id);
    const answer = await dataProvider.action<{ data: BookingLabelItem[] }>('booking', 'GET', 'labels', undefined, {
      piece_uid: id,
    });
    cachePrintData(printKeys.booking(id), answer.data);
    return `/print/booking/${id}`;
  };
}
