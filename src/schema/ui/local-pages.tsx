import { useState } from 'react';
import { TablePagination } from '@mui/material';

/**
 * Pages through rows already in memory (an import preview, a log search), a fixed number at a
 * time. `pagination` is the pager, shown only when there is more than one page.
 */
export function useLocalPages<T>(rows: readonly T[], size: number) {
  const [page, setPage] = useState(0);
  const shown = rows.slice(page * size, (page + 1) * size);
  const pagination = <FixedPager count={rows.length} page={page} size={size} onPage={setPage} />;
  return { shown, pagination, toFirstPage: () => setPage(0) };
}

/** A pager of pages of one size, shown only when there is more than one page. */
export function FixedPager({
  count,
  page,
  size,
  onPage,
}: {
  count: number;
  page: number;
  size: number;
  onPage: (page: number) => void;
}) {
  if (count <= size) return null;
  return (
    <TablePagination
      component="div"
      count={count}
      page={page}
      rowsPerPage={size}
      rowsPerPageOptions={[size]}
      onPageChange={(_event, next) => onPage(next)}
    />
  );
}
