import { lazy, Suspense, useEffect, useState } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { useNotify, useTranslate } from 'react-admin';
import { CompanyLogo } from './company-logo.tsx';
import { orDash, printKeys, readPrintData, type LocationExport } from '../../schema/print-cache.ts';
import { PRINT_DELAY_MS } from './booking-label-page.tsx';
import './print.css';

/** Map links open at zoom 16 (spec 01 §9). */
export function mapLink(latitude: number, longitude: number) {
  return `https://www.google.com/maps/search/?api=1&query=${latitude},${longitude}&zoom=16`;
}

type Proposal = LocationExport['proposals'][number];

/** Leaflet loads with the first sheet that has a proposal with coordinates. */
const ProposalMap = lazy(() => import('./proposal-map.tsx'));

function ProposalSection({ location, proposal }: { location: LocationExport; proposal: Proposal }) {
  const translate = useTranslate();
  const contacts = location.contacts
    .filter((contact) => contact.proposal_id?.some((link) => link.temp_id && link.temp_id === proposal.temp_id))
    .map((contact) => contact.name)
    .filter(Boolean);
  const hasCoordinates = typeof proposal.latitude === 'number' && typeof proposal.longitude === 'number';
  return (
    <section className="proposal">
      <h2>
        {translate('print.proposal')} LM{location.location_id}_{proposal.proposal_id} / {orDash(proposal.name)}
      </h2>
      <dl>
        <dt>{translate('print.address')}</dt>
        <dd>{orDash(proposal.address)}</dd>
        <dt>{translate('print.contacts')}</dt>
        <dd>{contacts.length ? contacts.join(', ') : '-'}</dd>
        <dt>{translate('print.public_description')}</dt>
        <dd>{orDash(proposal.location_description)}</dd>
        <dt>{translate('print.hardware_units')}</dt>
        <dd>{orDash(proposal.hardware_units)}</dd>
        <dt>{translate('print.hardware_type')}</dt>
        <dd>
          {orDash(proposal.hardware_type)} {proposal.hardware_model_name ?? proposal.hardware_model_id ?? ''}
        </dd>
        <dt>{translate('print.position')}</dt>
        <dd>{translate(proposal.position === 1 ? 'print.outdoor' : 'print.indoor')}</dd>
        <dt>{translate('print.foundation')}</dt>
        <dd>
          {orDash(
            proposal.foundation_id
              ?.map((f) => f.column_name)
              .filter(Boolean)
              .join(', '),
          )}
        </dd>
        <dt>{translate('print.map')}</dt>
        <dd>
          {hasCoordinates ? (
            <a href={mapLink(proposal.latitude!, proposal.longitude!)} target="_blank" rel="noopener noreferrer">
              {proposal.latitude}, {proposal.longitude}
            </a>
          ) : (
            '-'
          )}
        </dd>
      </dl>
      {hasCoordinates && (
        <Suspense fallback={null}>
          <ProposalMap
            latitude={proposal.latitude!}
            longitude={proposal.longitude!}
            label={`${translate('print.map')} ${orDash(proposal.name)}`}
          />
        </Suspense>
      )}
      <div>
        {(proposal.imageFiles ?? []).map((image) => (
          <img key={image.url} src={image.url} alt={orDash(proposal.name)} />
        ))}
      </div>
    </section>
  );
}

/** A stored location export, printed on A4 (spec 01 §2.5). */
export function LocationPrintPage({ companyName }: { companyName: string }) {
  const { id = '' } = useParams();
  const translate = useTranslate();
  const notify = useNotify();
  const [location] = useState(() => readPrintData<LocationExport>(printKeys.location(id)));

  useEffect(() => {
    if (!location) {
      notify('print.expired', { type: 'warning' });
      return;
    }
    const timer = window.setTimeout(() => window.print(), PRINT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [location, notify]);

  if (!location) return <Navigate to="/locations" replace />;
  const { basic } = location;
  return (
    <main className="print-page location-print">
      <h1>
        {location.location_id} · {orDash(basic.name)}
      </h1>
      <dl>
        <dt>{translate('print.address')}</dt>
        <dd>{orDash(basic.address_1)}</dd>
        <dt>{translate('print.location_owner')}</dt>
        <dd>{orDash(basic.location_owner_name ?? basic.location_owner_id)}</dd>
        <dt>{translate('print.municipality')}</dt>
        <dd>{orDash(basic.municipality_name ?? basic.municipality_id)}</dd>
        <dt>{translate('print.area')}</dt>
        <dd>{translate(basic.is_rural ? 'print.rural' : 'print.city')}</dd>
        <dt>{translate('print.location_type')}</dt>
        <dd>{orDash(basic.location_type_name ?? basic.location_type_id)}</dd>
        <dt>{translate('print.proposals')}</dt>
        <dd>{location.proposals.length}</dd>
      </dl>
      {location.proposals.map((proposal) => (
        <ProposalSection key={proposal.proposal_id} location={location} proposal={proposal} />
      ))}
      <footer>
        <CompanyLogo name={companyName} height={24} />
      </footer>
    </main>
  );
}
