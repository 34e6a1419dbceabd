package uvloop

import (
	"reflect"
	"testing"
)

func dumpLayout(t *testing.T, typ reflect.Type, indent string, base uintptr) {
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		t.Logf("%s%4d %4d %s %s", indent, base+f.Offset, f.Type.Size(), f.Name, f.Type)
		if f.Type.Kind() == reflect.Struct && f.Type.Size() > 16 {
			dumpLayout(t, f.Type, indent+"  ", base+f.Offset)
		}
	}
}

func TestZZLayout(t *testing.T) {
	t.Logf("TCP %d", reflect.TypeOf(TCP{}).Size())
	dumpLayout(t, reflect.TypeOf(TCP{}), "", 0)
}
