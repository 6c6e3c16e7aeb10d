#!/usr/bin/env node
import { FilesApp } from './app.js';

await new FilesApp().start();
