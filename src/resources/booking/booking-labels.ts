import { type RaRecord } from 'react-admin';
import { cachePrintData, printKeys, type BookingLabelItem } from '../../schema/print-cache.ts';
import { useGateway } from '../../schema/ui/gateway-api.ts';

/**
 * A booking's labels: the gateway's label items (carrier, service point, end user) cached for the
 * print page (spec 01 §2.4), whose address it answers.
 */
export function useOpenLabels() {
  const dataProvider = useGateway();
  return async (record: RaRecord) => {
    const id = String(record.piece_uid ?? record.id);
    const answer = await dataProvider.action<{ data: BookingLabelItem[] }>('booking', 'GET', 'labels', undefined, {
      piece_uid: id,
    });
    cachePrintData(printKeys.booking(id), answer.data);
    return `/print/booking/${id}`;
  };
}
