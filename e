sdt-list: out of memory
