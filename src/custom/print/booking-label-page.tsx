import { useEffect, useRef, useState } from 'react';
import { Navigate, useBlocker, useNavigate, useParams } from 'react-router-dom';
import { useNotify, useTranslate } from 'react-admin';
import { Button, Stack } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import PrintIcon from '@mui/icons-material/Print';
import JsBarcode from 'jsbarcode';
import { CompanyLogo } from './company-logo.tsx';
import { printKeys, readPrintData, type BookingLabelItem } from '../../schema/print-cache.ts';
import { bookingLabelBlocks, type LabelBlock } from './booking-label-lines.ts';
import './print.css';

export const PRINT_DELAY_MS = 1000;

function Barcode({ value }: { value: string }) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (ref.current) JsBarcode(ref.current, value, { format: 'CODE128', displayValue: false, margin: 0 });
  }, [value]);
  return <svg ref={ref} aria-label={value} />;
}

function Lines({ block }: { block: LabelBlock }) {
  const translate = useTranslate();
  return (
    <div className="block">
      <h2>{translate(block.title)}</h2>
      {block.lines.map((line) => (
        <div key={line}>{line}</div>
      ))}
    </div>
  );
}

function Label({ item, companyName }: { item: BookingLabelItem; companyName: string }) {
  const translate = useTranslate();
  const blocks = bookingLabelBlocks(item).map((block) => <Lines key={block.title} block={block} />);
  return (
    <section className="booking-label" aria-label={`PIECE ID: ${item.piece_id}`}>
      {blocks}
      {item.endUser_reference && <div>{translate('print.reference', { reference: item.endUser_reference })}</div>}
      <div className="barcode">
        <Barcode value={item.piece_id} />
      </div>
      <strong>PIECE ID: {item.piece_id}</strong>
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
  const translate = useTranslate();
  const navigate = useNavigate();
  const [items] = useState(() => readPrintData<BookingLabelItem[]>(printKeys.booking(id)));
  const [printed, setPrinted] = useState(false);
  // Leaving is blocked until the print dialog has been shown, except by the page's own Back button.
  const leaving = useRef(false);
  useBlocker(() => Boolean(items?.length) && !printed && !leaving.current);

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
      {/* On screen only: the print stylesheet prints the labels alone. */}
      <Stack direction="row" spacing={1} className="no-print print-toolbar">
        <Button
          variant="outlined"
          startIcon={<ArrowBackIcon />}
          onClick={() => {
            leaving.current = true;
            navigate('/booking');
          }}
        >
          {translate('print.back_to_bookings')}
        </Button>
        <Button
          variant="contained"
          startIcon={<PrintIcon />}
          onClick={() => {
            window.print();
            setPrinted(true);
          }}
        >
          {translate('print.print')}
        </Button>
      </Stack>
      {items.map((item) => (
        <Label key={item.piece_id} item={item} companyName={companyName} />
      ))}
    </main>
  );
}
