import { createRoot } from 'react-dom/client';
import { Admin, Datagrid, List, Resource, TextField, type DataProvider } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';

const posts = [
  { id: 1, title: 'Hello' },
  { id: 2, title: 'World' },
];

const dataProvider = {
  getList: async () => ({ data: posts, total: posts.length }),
  getOne: async () => ({ data: posts[0] }),
  getMany: async () => ({ data: posts }),
  getManyReference: async () => ({ data: posts, total: posts.length }),
  create: async () => ({ data: posts[0] }),
  update: async () => ({ data: posts[0] }),
  updateMany: async () => ({ data: [] }),
  delete: async () => ({ data: posts[0] }),
  deleteMany: async () => ({ data: [] }),
} as unknown as DataProvider;

const i18nProvider = polyglotI18nProvider(
  (locale) => (locale === 'fr' ? import('ra-language-french').then((module) => module.default) : englishMessages),
  'en',
  [
    { locale: 'en', name: 'English' },
    { locale: 'fr', name: 'Français' },
  ],
);

function PostList() {
  return (
    <List>
      <Datagrid>
        <TextField source="id" />
        <TextField source="title" />
      </Datagrid>
    </List>
  );
}

createRoot(document.getElementById('root')!).render(
  <Admin dataProvider={dataProvider} i18nProvider={i18nProvider}>
    <Resource name="posts" list={PostList} />
  </Admin>,
);
