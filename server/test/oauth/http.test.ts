/** The same OAuth suites over real HTTP: `createServer` on port 0 (Express shell, full core), one server per test. */
import { harnessOver } from './fixture.js';
import { authorizeSuite } from './suites/authorize.js';
import { grantsSuite } from './suites/grants.js';
import { jwtBearerSuite } from './suites/jwt-bearer.js';
import { throttleSuite } from './suites/throttle.js';
import { tokenEndpointSuite } from './suites/token-endpoint.js';

const harness = harnessOver('http');

tokenEndpointSuite(harness);
grantsSuite(harness);
jwtBearerSuite(harness);
authorizeSuite(harness);
throttleSuite(harness);
