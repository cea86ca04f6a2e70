import { describe, expect, it } from 'vitest';
import common from '../../schemas/common.schema.json';
import ticket from '../../schemas/ticket.schema.json';
import { createSchemaRegistry } from '../../src/schema/ajv.ts';
import { importFile } from '../../src/schema/bulk-import.ts';

const registry = createSchemaRegistry([common, ticket]);
const parse = (content: string) =>
  importFile(new File([content], 'tickets.csv', { type: 'text/csv' }), { registry, schemaId: 'ticket' });

const header = 'ticket_type,sp_id,hardware_unit_id,compartment_id,reported_by,maintenance_operator_id,description';

describe('the ticket bulk import (spec 02 §5 limits)', () => {
  it('takes a row within the limits', async () => {
    const result = await parse(`${header}\n3,1234567890,1234567890,1234567890,PN00000001,12,Door jammed\n`);
    expect(result.state).toBe('uploaded');
    expect(result.rows[0].validity).toBe('valid');
    expect(result.rows[0].data).toMatchObject({ ticket_type: 3, sp_id: 1234567890, reported_by: 'PN00000001' });
  });

  it('flags a service point, hardware, compartment or reported-by id over 10 characters, an assignee over 70', async () => {
    const long = 'A'.repeat(71);
    const result = await parse(
      [
        header,
        '3,12345678901,1,1,U1,1,x',
        '3,1,12345678901,1,U1,1,x',
        '3,1,1,12345678901,U1,1,x',
        '3,1,1,1,U123456789X,1,x',
        `3,1,1,1,U1,${long},x`,
      ].join('\n'),
    );
    const errors = result.rows.map((row) => row.errors);
    expect(errors[0].sp_id).toMatchObject({ message: 'validation.max_length', args: { max: 10 }, kind: 'length' });
    expect(errors[1].hardware_unit_id).toMatchObject({ message: 'validation.max_length', args: { max: 10 } });
    expect(errors[2].compartment_id).toMatchObject({ message: 'validation.max_length', args: { max: 10 } });
    expect(errors[3].reported_by).toMatchObject({ message: 'validation.max_length', args: { max: 10 } });
    expect(errors[4].maintenance_operator_id).toMatchObject({ message: 'validation.max_length', args: { max: 70 } });
    expect(result.rows.every((row) => row.validity === 'invalid')).toBe(true);
  });
});
