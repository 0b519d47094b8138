// Connection types (spec/3 §2 Connections, §3 Connection; FORMATS.md Connection): the fields each type's
// form shows, where each field is stored in a `connections` row, defaults, and the validation the form
// and the server share. The entry of `@opsdeck/common/connections`; the parts are in
// connectionFields.ts (families, columns, the field model), connectionTypes.ts (the catalogue of types),
// connectionValidation.ts (checks, defaults, secret references) and connectionTestResult.ts (test answers).

export {
  CONNECTION_COLUMNS,
  CONNECTION_FAMILIES,
  SECRET_CONNECTION_COLUMNS,
  type ConnectionFamily,
  type ConnectionField,
  type ConnectionTypeDef,
} from './connectionFields.js';
export { CONNECTION_TYPES, connectionType } from './connectionTypes.js';
export {
  SECRET_REF,
  fieldValue,
  isSecretRef,
  validateConnection,
  withConnectionDefaults,
  type ConnectionFieldError,
  type ConnectionInput,
} from './connectionValidation.js';
export { CONNECTION_TEST_UNSUPPORTED, type ConnectionTestResult } from './connectionTestResult.js';
