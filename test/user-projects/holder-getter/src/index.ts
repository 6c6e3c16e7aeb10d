#!/usr/bin/env node
import { DeployApp } from './app.js';

const app = new DeployApp({ name: 'deploy-helper', version: '2.1.0', defaultRegion: 'eu-west' });
app.start().catch(error => {
  console.error(error);
  process.exit(1);
});
