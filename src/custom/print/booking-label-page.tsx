import { useEffect, useRef, useState } from 'react';
import { Navigate, useBlocker, useParams } from 'react-router-dom';
import { useNotify, useTranslate } from 'react-admin';
import JsBarcode from 'jsbarcode';
import { CompanyLogo } from './company-logo.tsx';
import { orDash, printKeys, readPrintData, type BookingLabelItem } from '../../schema/print-cache.ts';
import './print.css';
import { PieceType } from '../../types/generated/codes.ts';

export const PRINT_DELAY_MS = 1000;

function Barcode({ value }: { value: string }) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (ref.current) JsBarcode(ref.current, value, { format: 'CODE128', displayValue: false, margin: 0 });
  }, [value]);
  return <svg ref={ref} aria-label={value} />;
}

function Lines({ title, lines }: { title: string; lines: unknown[] }) {
  return (
    <div className="block">
      <h2>{title}</h2>
      {lines.map((line, index) => (
        <div key={index}>{orDash(line)}</div>
      ))}
    </div>
  );
}

function Label({ item, companyName }: { item: BookingLabelItem; companyName: string }) {
  const translate = useTranslate();
  const carrier = item.carrier ?? {};
  const sp = item.sp ?? {};
  const carrierLines = [
    carrier.carrier_name,
    carrier.carrier_address,
    `${orDash(carrier.zip)} ${orDash(carrier.city)}`,
    carrier.contact,
    carrier.emailAddress,
  ];
  const endUserLines = [item.endUserPhone, item.endUser_emailAddress];
  const delivery = (
    <Lines
      title={translate('print.delivery_address')}
      lines={[sp.name, sp.sp_id, sp.sp_address, `${orDash(sp.zip)} ${orDash(sp.city)}`]}
    />
  );
  // Type 1: the carrier sends to the end user. Type 3: the end user sends back to the carrier.
  const blocks =
    item.piece_type === PieceType.EndUserDropOff ? (
      <>
        <Lines title={translate('print.sender')} lines={endUserLines} />
        {delivery}
        <Lines title={translate('print.receiver')} lines={carrierLines} />
      </>
    ) : (
      <>
        <Lines title={translate('print.delivered_from')} lines={carrierLines} />
        {delivery}
        <Lines title={translate('print.receiver')} lines={endUserLines} />
      </>
    );
  return (
    <section className="booking-label" aria-label={`PIECE ID: ${item.piece_id}`}>
      {blocks}
      {item.endUser_reference && <div>{translate('print.reference', { reference: item.endUser_reference })}</div>}
      <div className="barcode">
        <Barcode value={item.piece_id} />
      </div>
      <strong>PIECE ID: {orDash(item.piece_id)}</strong>
      <div className="powered-by">
        {translate('print.powered_by')} <CompanyLogo name={companyName} />
      </div>
    </section>
  );
}

/** Label pages of a cached booking, one per piece; the print dialog opens after 1 s (spec 01 §2.4). */
export function BookingLabelPage({ companyName }: { companyName: string }) {
  const { id } = useParams();
  const notify = useNotify();
  const [items] = useState(() => readPrintData<BookingLabelItem[]>(printKeys.booking(id)));
  const [printed, setPrinted] = useState(false);
  // Leaving is blocked until the print dialog has been shown.
  useBlocker(() => Boolean(items?.length) && !printed);

  useEffect(() => {
    if (!items?.length) {
      notify('print.expired', { type: 'warning' });
      return;
    }
    const timer = window.setTimeout(() => {
      window.print();
      setPrinted(true);
    }, PRINT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [items, notify]);

  if (!items?.length) return <Navigate to="/booking" replace />;
  return (
    <main className="print-page">
      {items.map((item) => (
        <Label key={item.piece_id} item={item} companyName={companyName} />
      ))}
    </main>
  );
}
