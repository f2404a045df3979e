import { readFileSync } from 'node:fs';
import { buildCodeTables, CODE_TABLES_JSON } from '../../../builders/build-code-tables';

it('the bundled code tables are exactly the CSVs they are built from', () => {
  expect(readFileSync(CODE_TABLES_JSON, 'utf8')).toBe(buildCodeTables());
});
