// Checks a JSON file against a JSON Schema (draft 2020-12) with Ajv, for json_schema_cli_test:
//   node validate_json_schema.cjs AJV_DIR SCHEMA FILE
// AJV_DIR is the folder npm installed ajv into (AJV_DIR/node_modules/ajv). Exit 0: valid; 1: not valid, the errors on
// stderr; 2: the schema itself is not valid; 3: Ajv is not there.
'use strict';
const fs = require('fs');
const path = require('path');

const [ajvDir, schemaPath, dataPath] = process.argv.slice(2);
let Ajv2020;
try {
  Ajv2020 = require(path.join(ajvDir, 'node_modules', 'ajv', 'dist', '2020')).default;
} catch (e) {
  console.error(`ajv is not installed under ${ajvDir}: ${e.message}`);
  process.exit(3);
}
// strict: an unknown keyword or a malformed schema is an error, not ignored. Union types ("type": ["number",
// "null"]) are how the schema says a field may be null, and a subschema may require a property that the schema
// around it defines (oneOf's branches).
const ajv = new Ajv2020(
    {allErrors: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true});
let validate;
try {
  validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));
} catch (e) {
  console.error(`${schemaPath}: ${e.message}`);
  process.exit(2);
}
if (validate(JSON.parse(fs.readFileSync(dataPath, 'utf8')))) process.exit(0);
console.error(ajv.errorsText(validate.errors, {separator: '\n'}));
process.exit(1);
