import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { type DataProvider } from 'react-admin';
import fr from '../../locales/fr-FR.json';
import { modelOf } from '../../src/schema/ui/registry.ts';
import { RecordView } from '../../src/schema/ui/record-view.tsx';
import { ValueKindsProvider } from '../../src/schema/ui/input-kinds.tsx';
import { PieceEndUserValue } from '../../src/resources/shipments/piece-panels.tsx';
import { i18nProviderIn, renderInAdmin } from './support/admin.tsx';

/*
 * Issue 24.2: a record page names what a person knows by name: a PIN pad's features by their labels
 * in both languages (not `audio_guidance`), a piece's courier by its code and its end user by name
 * (not "Courier: 3", "End user: 1408").
 */

const names: Record<string, Record<string, string>> = {
  couriers: { '3': 'NO0003' },
  'service-points': { '268': 'Railway Stations Station Aarhus 268' },
};

const dataProvider = {
  getMany: async (resource: string, { ids }: { ids: unknown[] }) => ({
    data: ids.map((id) => ({ id, code: names[resource]?.[String(id)], name: names[resource]?.[String(id)] })),
  }),
  getList: async () => ({ data: [], total: 0 }),
  call: async () => ({ data: [] }),
  action: async () => ({ data: [], total: 0 }),
} as unknown as DataProvider;

function renderRecord(modelName: string, record: Record<string, unknown>, locale: 'en-US' | 'fr-FR' = 'en-US') {
  const model = modelOf(modelName);
  renderInAdmin(
    <ValueKindsProvider value={{ 'piece-end-user': PieceEndUserValue }}>
      <RecordView model={model} />
    </ValueKindsProvider>,
    { dataProvider, i18nProvider: i18nProviderIn(locale), resource: model.name, record },
  );
}

afterEach(cleanup);

describe('record pages name, not code (issue 24.2)', () => {
  it("a PIN pad's features read as their labels, in English and in French", async () => {
    expect(modelOf('pinpad').fields.find((field) => field.source === 'features')?.choices).toBe('pinpad_feature');
    renderRecord('pinpad', { id: 40, pinpad_id: 40, ble_chip_id: 'BLE-40', features: ['audio_guidance', 'nfc'] });
    expect(await screen.findByText('Audio guidance')).toBeTruthy();
    expect(screen.queryByText(/audio_guidance/)).toBeNull();
    cleanup();
    renderRecord('pinpad', { id: 40, pinpad_id: 40, features: ['audio_guidance'] }, 'fr-FR');
    expect(await screen.findByText(fr.choices.pinpad_feature.audio_guidance)).toBeTruthy();
    expect(fr.choices.pinpad_feature.audio_guidance).not.toBe('audio_guidance');
  });

  it("a piece's courier by its code and its end user by name, not their ids", async () => {
    renderRecord('piece', {
      id: 'DEMO-WAITING-1',
      piece_id: 'DEMO-WAITING-1',
      state: 103,
      piece_type: 1,
      courier_id: 3,
      enduser_id: 1408,
      recipient_name: 'Anna Lind',
      sender_name: 'NordPost',
    });
    await waitFor(() => expect(screen.getByText('NO0003')).toBeTruthy());
    // The end user by the name the piece gives them (end users are found by phone, not listed by id).
    expect(screen.getAllByText('Anna Lind').length).toBeGreaterThan(0);
    expect(screen.queryByText('1408')).toBeNull();
    expect(screen.queryByText(/^3$/)).toBeNull();
  });

  it("a ticket's page names its service point once, not again as the list's name column", async () => {
    renderRecord('ticket', {
      id: 300,
      ticket_id: 300,
      ticket_type: 4,
      sp_id: 268,
      sp_name: 'Railway Stations Station Aarhus 268',
      hardware_name: 'BLE-A0001F',
      operator_name: 'Sofia Aalto',
    });
    expect(await screen.findByText('Railway Stations Station Aarhus 268')).toBeTruthy();
    expect(screen.getAllByText('Railway Stations Station Aarhus 268')).toHaveLength(1);
    expect(screen.queryByText('Service point name')).toBeNull();
    expect(screen.queryByText('BLE-A0001F')).toBeNull();
  });
});
