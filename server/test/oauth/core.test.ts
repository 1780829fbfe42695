/** The OAuth suites against `createOAuth(context).handle`, called directly over an in-memory store. */
import { harnessOver } from './fixture.js';
import { authorizeSuite } from './suites/authorize.js';
import { grantsSuite } from './suites/grants.js';
import { jwtBearerSuite } from './suites/jwt-bearer.js';
import { throttleSuite } from './suites/throttle.js';
import { tokenEndpointSuite } from './suites/token-endpoint.js';

const harness = harnessOver('core');

tokenEndpointSuite(harness);
grantsSuite(harness);
jwtBearerSuite(harness);
authorizeSuite(harness);
throttleSuite(harness);
