// PNG reading and writing.
