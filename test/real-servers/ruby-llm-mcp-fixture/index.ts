// Entry point - import and run the server
import "./src/index.ts";
