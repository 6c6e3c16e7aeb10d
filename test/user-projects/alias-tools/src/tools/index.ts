import '@/tools/notes';
import '@/tools/delete';
