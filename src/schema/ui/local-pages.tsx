import { useState } from 'react';
import { TablePagination } from '@mui/material';

/**
 * Pages through rows already in memory (an import preview, a log search), a fixed number at a
 * time. `pagination` is the pager, shown only when there is more than one page.
 */
export function useLocalPages<T>(rows: readonly T[], size: number) {
  const [page, setPage] = useState(0);
  const shown = rows.slice(page * size, (page + 1) * size);
  const pagination =
    rows.length > size ? (
      <TablePagination
        component="div"
        count={rows.length}
        page={page}
        rowsPerPage={size}
        rowsPerPageOptions={[size]}
        onPageChange={(_event, next) => setPage(next)}
      />
    ) : null;
  return { shown, pagination, toFirstPage: () => setPage(0) };
}
