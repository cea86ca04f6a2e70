import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { ListErrorNotifier } from './list-errors.tsx';

export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <Layout>
      {children}
      <ListErrorNotifier />
    </Layout>
  );
}
