import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useLocalPages } from '../../src/schema/ui/local-pages.tsx';

function Pages({ rows, size }: { rows: number[]; size: number }) {
  const { shown, pagination, toFirstPage } = useLocalPages(rows, size);
  return (
    <>
      <ul>
        {shown.map((row) => (
          <li key={row}>row {row}</li>
        ))}
      </ul>
      {pagination}
      <button onClick={toFirstPage}>first</button>
    </>
  );
}

const rows = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

describe('useLocalPages', () => {
  afterEach(cleanup);

  it('shows one page at a time and moves between pages', () => {
    render(<Pages rows={rows(60)} size={25} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(25);
    expect(screen.getByText('row 1')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    expect(screen.getByText('row 26')).toBeTruthy();
    expect(screen.queryByText('row 25')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    expect(screen.getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByText('row 60')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'first' }));
    expect(screen.getByText('row 1')).toBeTruthy();
  });

  it('has no pager when everything fits on one page', () => {
    render(<Pages rows={rows(25)} size={25} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(25);
    expect(screen.queryByRole('button', { name: /next page/i })).toBeNull();
  });
});
